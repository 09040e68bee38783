import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Makes sure Debian's Chromium (and Korean fonts) are there for Playwright; never downloads a browser build. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FONTS = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
if (existsSync(CHROMIUM) && existsSync(FONTS)) process.exit(0);
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(`Chromium is missing at ${CHROMIUM}. Install it with: sudo apt-get install -y chromium fonts-noto-cjk (or set CHROMIUM_PATH).`);
  process.exit(1);
}
console.log('Installing Debian chromium and fonts-noto-cjk for the browser tests…');
execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-noto-cjk', { stdio: 'inherit' });
