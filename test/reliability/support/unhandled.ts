// Records every unhandled promise rejection of a test file; the file's last hook fails if there was one.
import { afterAll, beforeAll } from 'vitest';

export function failOnUnhandledRejections(): void {
  const seen: unknown[] = [];
  const record = (reason: unknown) => seen.push(reason);
  beforeAll(() => {
    process.on('unhandledRejection', record);
  });
  afterAll(async () => {
    // Let rejections of the last test surface before looking.
    await new Promise((resolve) => setTimeout(resolve, 50));
    process.off('unhandledRejection', record);
    if (seen.length > 0) {
      const names = seen.map((reason) => (reason instanceof Error ? reason.name : typeof reason)).join(', ');
      throw new Error(`unhandled rejections: ${names}`);
    }
  });
}
