// A minimal synchronous event emitter; a throwing listener cannot break the others.
export interface Disposable {
  dispose(): void;
}

export class Emitter<T> {
  private readonly listeners = new Set<(e: T) => void>();

  /** `onListenerError` hears a listener's throw (e.g. to log it); the other listeners still run. */
  constructor(private readonly onListenerError?: (err: unknown) => void) {}

  readonly event = (listener: (e: T) => void): Disposable => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(e: T): void {
    for (const l of [...this.listeners]) {
      try {
        l(e);
      } catch (err) {
        // a listener's bug must not stop the runtime's bookkeeping
        this.onListenerError?.(err);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
