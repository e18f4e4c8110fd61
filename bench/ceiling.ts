import { createServer } from 'node:http';

// The ceiling: the cheapest JSON answer Node can give on this machine.
const body = JSON.stringify({ status: 'ok', version: '0.0.0', database: 'ok' });
const server = createServer((_req, res) => {
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
