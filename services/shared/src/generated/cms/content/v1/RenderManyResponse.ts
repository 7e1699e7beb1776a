// Original file: proto/cms/content/v1/content.proto

import type { RenderedObject as _cms_content_v1_RenderedObject, RenderedObject__Output as _cms_content_v1_RenderedObject__Output } from '../../../cms/content/v1/RenderedObject';

export interface RenderManyResponse {
  'objects'?: (_cms_content_v1_RenderedObject)[];
}

export interface RenderManyResponse__Output {
  'objects': (_cms_content_v1_RenderedObject__Output)[];
}
