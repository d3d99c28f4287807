// A minimal synchronous event emitter; a throwing listener cannot break the others.
export interface Disposable {
  dispose(): void;
}

export class Emitter<T> {
  private readonly listeners = new Set<(e: T) => void>();

  readonly event = (listener: (e: T) => void): Disposable => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(e: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch {
        // a listener's bug must not stop the runtime's bookkeeping
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
