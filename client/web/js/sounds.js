// Sounds, made in the browser with WebAudio (no file to load): a move, a refusal, a win. Off
// until the player turns them on in the settings. Each sound played is told on ``document`` as a
// "pc-sound" event (detail: its name), for tests and tools.

import { settings } from './settings.js';

let context = null;

/** Notes of each sound: [frequency in Hz, start in s, length in s], and the wave and loudness. */
const SOUNDS = {
  move: { wave: 'triangle', gain: 0.12, notes: [[660, 0, 0.06]] },
  refusal: { wave: 'square', gain: 0.05, notes: [[180, 0, 0.09], [150, 0.1, 0.12]] },
  win: { wave: 'triangle', gain: 0.12, notes: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.12], [1047, 0.36, 0.3]] },
};

export function playSound(name) {
  const sound = SOUNDS[name];
  if (!sound || !settings().sounds) return;
  document.dispatchEvent(new CustomEvent('pc-sound', { detail: { name } }));
  try {
    context ??= new AudioContext();
    if (context.state === 'suspended') context.resume().catch(() => {});
    const now = context.currentTime;
    for (const [frequency, start, length] of sound.notes) {
      const osc = context.createOscillator();
      const gain = context.createGain();
      osc.type = sound.wave;
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(sound.gain, now + start);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(context.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
  } catch { /* no audio here: silence */ }
}
