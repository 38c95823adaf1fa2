/** The two sounds: one beep for "registered", another for "not registered". */
export type SoundName = 'success' | 'error';

export class Sounds {
  #audio: Record<SoundName, HTMLAudioElement>;

  constructor() {
    this.#audio = { success: new Audio('sounds/success.wav'), error: new Audio('sounds/error.wav') };
    for (const a of Object.values(this.#audio)) a.preload = 'auto';
  }

  play(name: SoundName): void {
    document.body.dataset.lastSound = name;
    for (const a of Object.values(this.#audio)) a.pause();
    const a = this.#audio[name];
    try {
      a.currentTime = 0;
      // Autoplay rules or a missing device may refuse: the screen still shows the result.
      void a.play().catch(() => undefined);
    } catch {
      // same
    }
  }
}
