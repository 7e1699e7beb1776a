// The plain project (test/volto/project) with multilingual switched on: setup.mjs copies that project and lays this
// folder over it, so only what differs lives here. Two languages, English first (Volto redirects / to /en).
import '@plone/volto/config';

export default function applyConfig(config) {
  config.settings.isMultilingual = true;
  config.settings.supportedLanguages = ['en', 'de'];
  config.settings.defaultLanguage = 'en';
  return config;
}
