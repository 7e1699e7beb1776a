import sharp from 'sharp';
import type { FileValue } from '../domain/files';
import { outputOf, type ImageScaler } from '../domain/files';
import { MAX_IMAGE_PIXELS } from '../domain/files';

/** Scales with sharp (libvips, prebuilt binaries from npm): oriented as the camera meant, metadata dropped. */
export const sharpScaler: ImageScaler = {
  async scale(original: Buffer, value: FileValue, width: number, height: number): Promise<Buffer> {
    const { format } = outputOf(value);
    return sharp(original, { limitInputPixels: MAX_IMAGE_PIXELS, animated: false })
      .rotate()
      .resize(width, height, { fit: 'fill' })
      .toFormat(format)
      .toBuffer();
  },
};
