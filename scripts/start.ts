import { fileURLToPath } from 'node:url';
import { startProduct } from '../src/host/main';
import { providerBanner } from '../src/api/sandbox-mode';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
try {
  const product = await startProduct({ projectRoot });
  console.log(`\n  LUXE 구독 is running at ${product.url}  (API: ${product.url}/api)\n`);
  console.warn(`${providerBanner(product.config)}\n`);
  // A signal handler returns nothing to wait on: the process exits once the product has stopped.
  const shutdown = () => void product.stop().finally(() => process.exit(0));
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
