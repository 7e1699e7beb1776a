import { DuplicateKeyError, type Collection, type DocumentStore } from '@cms/shared';
import type { ScaleStore } from '../domain/files';

interface ScaleRecord {
  /** `<source blob>:<width>x<height>`. */
  _id: string;
  source: string;
  blob: string;
  [key: string]: unknown;
}

/** Which blob holds each scale made, keyed by its original's blob and size. */
export class StoreScaleStore implements ScaleStore {
  private readonly scales: Collection<ScaleRecord>;

  constructor(store: DocumentStore) {
    this.scales = store.collection<ScaleRecord>('image_scales');
  }

  async ensureIndexes(): Promise<void> {
    await this.scales.createIndex({ source: 1 });
  }

  async find(source: string, width: number, height: number): Promise<string | null> {
    return (await this.scales.findOne({ _id: key(source, width, height) }))?.blob ?? null;
  }

  async record(source: string, width: number, height: number, blob: string): Promise<string> {
    try {
      await this.scales.insertOne({ _id: key(source, width, height), source, blob });
      return blob;
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error;
      return (await this.find(source, width, height)) ?? blob;
    }
  }

  async forget(sources: string[]): Promise<string[]> {
    if (!sources.length) return [];
    const records = await this.scales.find({ source: { $in: sources } });
    await this.scales.deleteMany({ source: { $in: sources } });
    return records.map((record) => record.blob);
  }
}

function key(source: string, width: number, height: number): string {
  return `${source}:${width}x${height}`;
}
