import type { Embed } from '@boardbot/protocol';
import { useState } from 'preact/hooks';
import { isHttpUrl } from '../format.js';
import { RichText } from './rich-text.js';

/**
 * One rich embed as a card: a colour bar, the title (a link when it has a `url`), the description,
 * the fields (inline ones side by side) and the image. Only `http(s)` URLs become links or images.
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
      {isHttpUrl(embed.image?.url) && <EmbedImage url={embed.image.url} alt={embed.title ?? 'Embedded image'} />}
    </article>
  );
}

// Offline, a remote image cannot load: show its address instead of a broken-image icon.
function EmbedImage({ url, alt }: { url: string; alt: string }) {
  const [broken, setBroken] = useState(false);
  if (broken) {
    return (
      <a class="embed-url" href={url} target="_blank" rel="noopener noreferrer">
        Image: {url}
      </a>
    );
  }
  return <img class="embed-image" src={url} alt={alt} loading="lazy" onError={() => setBroken(true)} />;
}
