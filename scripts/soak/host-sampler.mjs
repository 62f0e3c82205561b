// Preloaded (`node --import`) into each replica of the host soak (scripts/host-soak.mjs), a real
// `boardbot start --host --redis` process: answers the soak's samples over the IPC channel as the
// single bot's soak-bot.mjs does (scripts/soak/sampler.mjs), without holding the process alive.
import { answerSamples } from './sampler.mjs';

answerSamples();
process.channel?.unref();
