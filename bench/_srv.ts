import { createServer } from 'node:http';
import { memoryStore, toNodeHandler } from '@fin/server-kit';
import { benchService } from './targets/bench-service.js';

const service = benchService(memoryStore());
const server = createServer(toNodeHandler(service));
server.listen(45123, '127.0.0.1');
setTimeout(
  () => {
    server.closeAllConnections();
    server.close();
    process.exit(0);
  },
  Number(process.argv[2] ?? 15000),
);
