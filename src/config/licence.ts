import { PUBLIC_LICENCE_NEW_DRIVER } from 'astro:env/client';
import type { NewDriverPolicy } from '../domain/licence';

/** The new-driver rule the pages are built with: the server passes its LICENCE_NEW_DRIVER (src/host/main.ts). */
export const BUILT_NEW_DRIVER: NewDriverPolicy = PUBLIC_LICENCE_NEW_DRIVER;
