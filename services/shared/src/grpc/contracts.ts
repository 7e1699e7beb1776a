/** Generated message and service types of the contracts in proto/, under short names. */
export type { HttpRequest, HttpRequest__Output } from '../generated/cms/common/v1/HttpRequest';
export type { HttpResponse, HttpResponse__Output } from '../generated/cms/common/v1/HttpResponse';
export type { Principal, Principal__Output } from '../generated/cms/common/v1/Principal';
export type { QueryParam, QueryParam__Output } from '../generated/cms/common/v1/QueryParam';
// ContentService look-ups return cms.events.v1.ContentSnapshot: `ContentSnapshot` in events/content-events.ts.
export type { ContentServiceClient, ContentServiceHandlers } from '../generated/cms/content/v1/ContentService';
export type { ImportObjectRequest__Output } from '../generated/cms/content/v1/ImportObjectRequest';
export type { ImportObjectResponse__Output } from '../generated/cms/content/v1/ImportObjectResponse';
export type { NotCarried } from '../generated/cms/content/v1/NotCarried';
export type { ExportedObject, ExportedObject__Output } from '../generated/cms/content/v1/ExportedObject';
export type { ExportObjectsRequest__Output } from '../generated/cms/content/v1/ExportObjectsRequest';
export type { IdentityServiceClient, IdentityServiceHandlers } from '../generated/cms/identity/v1/IdentityService';
export type { AuthenticateRequest__Output } from '../generated/cms/identity/v1/AuthenticateRequest';
export type { ExportPrincipalsRequest__Output } from '../generated/cms/identity/v1/ExportPrincipalsRequest';
export type { ExportedPrincipal, ExportedPrincipal__Output } from '../generated/cms/identity/v1/ExportedPrincipal';
export type { SearchServiceClient, SearchServiceHandlers } from '../generated/cms/search/v1/SearchService';
export type {
  DiscussionServiceClient,
  DiscussionServiceHandlers,
} from '../generated/cms/discussion/v1/DiscussionService';
export type { ImportCommentsRequest__Output } from '../generated/cms/discussion/v1/ImportCommentsRequest';
export type { ImportCommentsResponse__Output } from '../generated/cms/discussion/v1/ImportCommentsResponse';
export type { ImportedComment } from '../generated/cms/discussion/v1/ImportedComment';
export type { ExportCommentsRequest__Output } from '../generated/cms/discussion/v1/ExportCommentsRequest';
export type { Conversation__Output } from '../generated/cms/discussion/v1/Conversation';
export type { CommentRecord__Output } from '../generated/cms/discussion/v1/CommentRecord';
export type { ConfigServiceClient, ConfigServiceHandlers } from '../generated/cms/config/v1/ConfigService';
