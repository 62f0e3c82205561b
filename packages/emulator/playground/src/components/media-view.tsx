import type { Media } from '@boardbot/protocol';
import { formatBytes, isHttpUrl, mediaName } from '../format.js';

/**
 * A message's attached media as a link with its name, type and size. Images are not loaded from
 * their host (the page's Content-Security-Policy allows images from the emulator only): opening
 * the page must not tell an address a bot or a person chose that someone is looking.
 */
export function MediaView({ media }: { media: Media }) {
  if (!isHttpUrl(media.url)) return null;
  const isImage = media.content_type.startsWith('image/');
  return (
    <a class="media is-file" href={media.url} target="_blank" rel="noopener noreferrer">
      <span aria-hidden="true">{isImage ? '🖼 ' : '📎 '}</span>
      {mediaName(media.url)}
      <span class="hint">
        {' '}
        {media.content_type}, {formatBytes(media.size)}
      </span>
    </a>
  );
}
