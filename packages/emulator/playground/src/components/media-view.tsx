import type { Media } from '@boardbot/protocol';
import { useState } from 'preact/hooks';
import { formatBytes, isHttpUrl } from '../format.js';

/**
 * A message's attached media: images inline (at their size when known), anything else as a link
 * with its type and size. An image that cannot load (the page works offline) falls back to the link.
 */
export function MediaView({ media }: { media: Media }) {
  const [broken, setBroken] = useState(false);
  if (!isHttpUrl(media.url)) return null;
  const name = decodeURIComponent(new URL(media.url).pathname.split('/').pop() || 'attachment');
  if (media.content_type.startsWith('image/') && !broken) {
    return (
      <a class="media" href={media.url} target="_blank" rel="noopener noreferrer">
        <img
          src={media.url}
          alt={name}
          loading="lazy"
          {...(media.width !== null ? { width: media.width } : {})}
          {...(media.height !== null ? { height: media.height } : {})}
          onError={() => setBroken(true)}
        />
      </a>
    );
  }
  return (
    <a class="media is-file" href={media.url} target="_blank" rel="noopener noreferrer">
      <span aria-hidden="true">📎 </span>
      {name}
      <span class="hint">
        {' '}
        {media.content_type}, {formatBytes(media.size)}
      </span>
    </a>
  );
}
