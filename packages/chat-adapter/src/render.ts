import {
  type AdapterPostableMessage,
  BaseFormatConverter,
  type CardChild,
  type CardElement,
  type FormattedContent,
  parseMarkdown,
  stringifyMarkdown,
} from 'chat';
import { notSupported } from './errors.js';

/**
 * Text on the board is Markdown as people write it: Chat SDK's mdast goes to and from it unchanged.
 * A card becomes its fallback text; one with buttons, a file, or an attachment is refused, since
 * the platform has no components and no uploads.
 */
export class BoardFormatConverter extends BaseFormatConverter {
  /** A message's content as mdast. @param platformText - a message's content */
  toAst(platformText: string): FormattedContent {
    return parseMarkdown(platformText);
  }

  /** mdast as the board's Markdown. @param ast - what to post */
  fromAst(ast: FormattedContent): string {
    return stringifyMarkdown(ast).trimEnd();
  }

  /**
   * The content a message posts or edits to.
   * @param message - what Chat SDK hands the adapter
   * @throws NotImplementedError (`files`, `buttons`) for what the platform cannot show
   */
  override renderPostable(message: AdapterPostableMessage): string {
    if (typeof message === 'object' && message !== null) {
      if ('files' in message && (message.files?.length ?? 0) > 0) throw notSupported('files');
      if ('attachments' in message && (message.attachments?.length ?? 0) > 0) throw notSupported('files');
      const card = cardOf(message);
      if (card !== undefined && hasActions(card.children)) throw notSupported('buttons');
    }
    return super.renderPostable(message);
  }
}

function cardOf(message: object): CardElement | undefined {
  if ('type' in message && message.type === 'card') return message as CardElement;
  if ('card' in message) return (message as { card: CardElement }).card;
  return undefined;
}

function hasActions(children: readonly CardChild[]): boolean {
  return children.some((c) => c.type === 'actions' || (c.type === 'section' && hasActions(c.children)));
}
