import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer } from 'node:http';
import { pipeline } from 'node:stream/promises';

// The transfer ceiling: the same bytes over bare node:http, to one file (BENCH_CEILING_FILE), fsynced like
// the store does; PUT writes it, GET streams it back.
const target = process.env.BENCH_CEILING_FILE ?? 'ceiling.bin';
const server = createServer(async (req, res) => {
  if (req.method === 'PUT') {
    const file = await open(target, 'w');
    for await (const chunk of req) await file.write(chunk as Buffer);
    await file.sync();
    await file.close();
    res.end();
  } else if (req.url === '/blob') {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    await pipeline(createReadStream(target), res);
  } else res.end('ok');
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
