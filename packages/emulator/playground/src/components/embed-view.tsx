import type { Embed } from '@boardbot/protocol';
import { isHttpUrl } from '../format.js';
import { RichText } from './rich-text.js';

/**
 * One rich embed as a card: a colour bar, the title (a link when it has a `url`), the description,
 * the fields (inline ones side by side) and the image's link. Only `http(s)` URLs become links.
 */
export function EmbedView({ embed }: { embed: Embed }) {
  const color = embed.color !== undefined && /^#[0-9a-f]{6}$/i.test(embed.color) ? embed.color : undefined;
  return (
    <article class="embed" style={color ? { borderInlineStartColor: color } : undefined} aria-label="Embed">
      {embed.title !== undefined &&
        (isHttpUrl(embed.url) ? (
          <a class="embed-title" href={embed.url} target="_blank" rel="noopener noreferrer">
            {embed.title}
          </a>
        ) : (
          <p class="embed-title">{embed.title}</p>
        ))}
      {embed.title === undefined && isHttpUrl(embed.url) && (
        <a class="embed-url" href={embed.url} target="_blank" rel="noopener noreferrer">
          {embed.url}
        </a>
      )}
      {embed.description !== undefined && (
        <p class="embed-description">
          <RichText text={embed.description} />
        </p>
      )}
      {embed.fields !== undefined && embed.fields.length > 0 && (
        <dl class="embed-fields">
          {embed.fields.map((f, i) => (
            <div key={i} class={f.inline ? 'embed-field is-inline' : 'embed-field'}>
              <dt>{f.name}</dt>
              <dd>
                <RichText text={f.value} />
              </dd>
            </div>
          ))}
        </dl>
      )}
      {isHttpUrl(embed.image?.url) && (
        // A link, not an <img>: the page loads no image from a host a bot chose (its CSP allows
        // images from the emulator only), so opening it tells that host nothing.
        <a class="embed-url" href={embed.image.url} target="_blank" rel="noopener noreferrer">
          Image: {embed.image.url}
        </a>
      )}
    </article>
  );
}
