// What the demo started and must stop: closed last-first, each once, on success, failure or Ctrl+C alike.

export interface Resources {
  add(name: string, close: () => Promise<unknown>): void;
  /** Closes everything still open (after any close already under way); resolves with the names that failed to close. */
  closeAll(): Promise<string[]>;
}

export function resources(): Resources {
  const open: { name: string; close: () => Promise<unknown> }[] = [];
  let closing = Promise.resolve<string[]>([]);
  return {
    add: (name, close) => void open.push({ name, close }),
    closeAll() {
      closing = closing.then(async (failedBefore) => {
        const failed = [...failedBefore];
        for (const { name, close } of open.splice(0).reverse()) {
          await close().catch(() => failed.push(name));
        }
        return failed;
      });
      return closing;
    },
  };
}
