import type { Interaction } from '@boardbot/protocol';
import { SseClient } from '@boardbot/test-support';

/**
 * Opens the app's gateway stream and resolves with the first `interaction.create` interaction, token
 * included: the control API never shows tokens, only the app's stream does.
 * @param apiUrl - the app API base URL
 * @param token - the app token
 * @param trigger - invokes the command once the stream is ready
 */
export async function interactionFromGateway(
  apiUrl: string,
  token: string,
  trigger: () => Promise<unknown>,
): Promise<Interaction> {
  const stream = await SseClient.open(`${apiUrl}/gateway`, token);
  try {
    let triggered = false;
    for (;;) {
      const { event, data } = await stream.nextEvent();
      if (event === 'ready' && !triggered) {
        triggered = true;
        await trigger();
      }
      if (event === 'interaction.create') return (JSON.parse(data) as { interaction: Interaction }).interaction;
    }
  } finally {
    stream.destroy();
  }
}
