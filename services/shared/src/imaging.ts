/**
 * The imaging settings of a new site (`allowed_sizes`: `name width:height`, 65536 meaning unbounded), as the
 * original platform ships them: config's registry default, and content's sizes while config cannot be read.
 */
export const DEFAULT_ALLOWED_SIZES: readonly string[] = [
  'huge 1600:65536',
  'great 1200:65536',
  'larger 1000:65536',
  'large 800:65536',
  'teaser 600:65536',
  'preview 400:65536',
  'mini 200:65536',
  'thumb 128:128',
  'tile 64:64',
  'icon 32:32',
  'listing 16:16',
];
