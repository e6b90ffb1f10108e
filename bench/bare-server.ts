// The baseline: a bare Fastify app answering the same JSON the real routes answer, with no
// database, auth, validation or rate limiting. Fixtures arrive as a JSON file path in argv[2].
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const fixtures = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { list: unknown; detail: unknown; write: unknown };
const app = Fastify({ logger: false });
app.get('/api/v1/events', async () => fixtures.list);
app.get('/api/v1/events/:id', async () => fixtures.detail);
app.post('/api/v1/write', async (request, reply) => {
  reply.status(201);
  return fixtures.write;
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
