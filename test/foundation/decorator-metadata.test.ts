import 'reflect-metadata';
import { describe, expect, it } from 'vitest';

// class-validator, class-transformer and constructor injection read TypeScript's emitted decorator
// metadata. vite's oxc transform emits it only when the nearest tsconfig.json asks for it, which a
// solution-style root tsconfig (`"files": []`) silently does not: this test pins that setup.
const metadata = (key: string, target: object, prop?: string): unknown =>
  prop === undefined ? Reflect.getMetadata(key, target) : Reflect.getMetadata(key, target, prop);

const Prop: PropertyDecorator = () => {};
const Injectable: ClassDecorator = () => {};

class Dice {}

class RollOptions {
  @Prop sides!: number;
  @Prop label!: string;
  @Prop loud!: boolean;
}

@Injectable
class Roll {
  constructor(
    readonly dice: Dice,
    readonly times: number,
  ) {}
}

describe('decorator metadata in tests', () => {
  it('emits design:type for decorated properties', () => {
    expect(metadata('design:type', RollOptions.prototype, 'sides')).toBe(Number);
    expect(metadata('design:type', RollOptions.prototype, 'label')).toBe(String);
    expect(metadata('design:type', RollOptions.prototype, 'loud')).toBe(Boolean);
  });

  it('emits design:paramtypes for decorated constructors', () => {
    expect(metadata('design:paramtypes', Roll)).toEqual([Dice, Number]);
  });
});
