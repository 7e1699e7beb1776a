import { actions } from './actions';
import { aliases } from './aliases';
import { breadcrumbs } from './breadcrumbs';
import { content } from './content';
import { contextnavigation } from './contextnavigation';
import { copy } from './copy';
import { database } from './database';
import { download } from './download';
import { siteExport } from './export';
import { history } from './history';
import { images } from './images';
import { siteImport } from './import';
import { inherit } from './inherit';
import { linkintegrity } from './linkintegrity';
import { lock } from './lock';
import { move } from './move';
import { navigation } from './navigation';
import { navroot } from './navroot';
import { refreshLock } from './refresh-lock';
import { relations } from './relations';
import { sharing } from './sharing';
import { querysources } from './querysources';
import { sources } from './sources';
import { transactions } from './transactions';
import { translationLocator } from './translation-locator';
import { translations } from './translations';
import { tusReplace } from './tus-replace';
import { tusUpload } from './tus-upload';
import { type } from './type';
import { types } from './types';
import { unlock } from './unlock';
import { upgrade } from './upgrade';
import { vocabularies } from './vocabularies';
import { workflow } from './workflow';
import { workingcopy } from './workingcopy';

/** Every HTTP endpoint of the content service; the gateway's routing table is generated from this list. */
export const ENDPOINTS = [
  content,
  workflow,
  sharing,
  copy,
  move,
  download,
  images,
  actions,
  aliases,
  breadcrumbs,
  contextnavigation,
  inherit,
  navigation,
  navroot,
  types,
  type,
  vocabularies,
  sources,
  querysources,
  lock,
  unlock,
  refreshLock,
  history,
  workingcopy,
  linkintegrity,
  relations,
  translations,
  translationLocator,
  upgrade,
  database,
  transactions,
  tusUpload,
  tusReplace,
  siteExport,
  siteImport,
];
