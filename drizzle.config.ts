import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/api/db/schema.ts',
  out: './src/api/db/migrations',
});
