import { z } from 'zod';
import { PHOTO_NAME_PATTERN } from '../photos';

/** GET /images/{name}: a variant's name as the pipeline writes it, nothing else (no paths, no originals). */
export const PhotoNameSchema = z.object({ name: z.string().regex(PHOTO_NAME_PATTERN, { error: '파일을 찾을 수 없습니다.' }) });
