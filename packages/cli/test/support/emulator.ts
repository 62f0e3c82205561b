import { createEmulator, type Emulator, type EmulatorUrls } from '@boardbot/emulator';
import { Control } from './control.js';

/** An in-memory emulator on a free loopback port, with the default seed. */
export interface TestEmulator {
  emulator: Emulator;
  urls: EmulatorUrls;
  control: Control;
  close(): Promise<void>;
}

/** @param devToken - the seeded dev-bot app's token */
export async function startTestEmulator(devToken = 'fixture-token'): Promise<TestEmulator> {
  const emulator = await createEmulator({ db: ':memory:', logger: false, devToken });
  const urls = await emulator.listen({ host: '127.0.0.1', port: 0 });
  return { emulator, urls, control: new Control(urls.controlUrl, emulator.adminKey), close: () => emulator.close() };
}
