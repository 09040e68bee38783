import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startProduct } from '../src/host/main';
import { loadConfig } from '../src/api/env';

/**
 * The product exactly as `npm start` runs it, on a fresh data folder, for Playwright.
 * DATA_DIR and DIST_DIR come from playwright.config.ts; both are wiped first.
 */
const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const config = loadConfig();
rmSync(config.dataDir, { recursive: true, force: true });
rmSync(config.distDir, { recursive: true, force: true });
const product = await startProduct({ projectRoot, config });
console.log(`e2e product at ${product.url}`);
// A signal handler returns nothing to wait on: the process exits once the product has stopped.
const stop = () => void product.stop().finally(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
