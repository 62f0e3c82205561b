import { inlineSpans } from '../inline-format.js';

/** Message text with chat emphasis, code and links styled (see {@link inlineSpans}); never raw HTML. */
export function RichText({ text }: { text: string }) {
  return (
    <>
      {inlineSpans(text).map((span, i) => {
        switch (span.kind) {
          case 'bold':
            return <strong key={i}>{span.text}</strong>;
          case 'italic':
            return <em key={i}>{span.text}</em>;
          case 'code':
            return <code key={i}>{span.text}</code>;
          case 'link':
            return (
              <a key={i} href={span.text} target="_blank" rel="noopener noreferrer">
                {span.text}
              </a>
            );
          default:
            return span.text;
        }
      })}
    </>
  );
}
