// What a test file started, closed in reverse order after it, including when a later start
// failed halfway through beforeAll.
export interface Resources {
  add<T>(value: T, close: (value: T) => Promise<unknown>): T;
  closeAll(): Promise<void>;
}

export function resources(): Resources {
  const closers: (() => Promise<unknown>)[] = [];
  return {
    add(value, close) {
      closers.push(() => close(value));
      return value;
    },
    async closeAll() {
      for (const close of closers.reverse()) await close();
      closers.length = 0;
    },
  };
}
