import { startTestSuite, type TestSuite } from '../support/embedded-suite';

/**
 * The platform's own words in the language of the request's `Accept-Language` (issue 15 item 7; transcripts
 * translated_messages_*): type, workflow, history, action and control panel titles, through the gateway.
 */
describe('translated messages through the gateway', () => {
  let t: TestSuite;
  beforeAll(async () => {
    t = await startTestSuite();
    const created = await t.request('POST', '/', { body: { '@type': 'Document', title: 'Front page' } });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await t.stop();
  });

  const get = async (path: string, language?: string) => {
    const response = await t.request('GET', path, { headers: language ? { 'Accept-Language': language } : {} });
    expect(response.status).toBe(200);
    return (await response.json()) as any;
  };
  const typeTitles = async (language?: string) =>
    Object.fromEntries((await get('/@types', language)).map((entry: any) => [entry.id, entry.title]));

  it('lists the types by their Spanish titles, in the order of those titles (translated_messages_types)', async () => {
    const body = await get('/@types', 'es');
    expect(body.map((entry: any) => [entry.id, entry.title])).toEqual([
      ['File', 'Archivo'],
      ['Folder', 'Carpeta'],
      ['Collection', 'Colección'],
      ['Link', 'Enlace'],
      ['Event', 'Evento'],
      ['Image', 'Imagen'],
      ['News Item', 'Noticia'],
      ['Document', 'Página'],
    ]);
    expect(body[0]).toEqual({
      '@id': `${t.suite.publicUrl}/@types/File`,
      addable: true,
      id: 'File',
      immediately_addable: true,
      title: 'Archivo',
    });
  });

  it('translates into German, French and English', async () => {
    expect(await typeTitles('de')).toMatchObject({ Folder: 'Ordner', Document: 'Seite', File: 'Datei' });
    expect(await typeTitles('fr')).toMatchObject({ Folder: 'Dossier', Document: 'Page', 'News Item': 'Actualité' });
    expect(await typeTitles('en')).toMatchObject({ Folder: 'Folder', Document: 'Page', 'News Item': 'News Item' });
  });

  it('negotiates the language by preference, region and q-value; English when nothing matches', async () => {
    expect((await typeTitles('fr;q=0.4, de;q=0.9')).Folder).toBe('Ordner');
    expect((await typeTitles('es-ES,es;q=0.9,en;q=0.8')).Folder).toBe('Carpeta');
    expect((await typeTitles('xx-YY, fr;q=0.1')).Folder).toBe('Dossier');
    expect((await typeTitles('de;q=0, fr')).Folder).toBe('Dossier');
    expect((await typeTitles('tlh, xx;q=0.5')).Folder).toBe('Folder');
    expect((await typeTitles('*')).Folder).toBe('Folder');
    expect((await typeTitles('not a language!;q=zz')).Folder).toBe('Folder');
    expect((await typeTitles()).Folder).toBe('Folder');
  });

  it("serves a type's schema with its title, fieldsets and built-in fields in Spanish (translated_messages_types_folder)", async () => {
    const response = await t.request('GET', '/@types/Folder', { headers: { 'Accept-Language': 'es' } });
    expect(response.status).toBe(200);
    const schema = (await response.json()) as any;
    expect(schema.title).toBe('Carpeta');
    expect(schema.fieldsets.map((f: any) => [f.id, f.title])).toEqual([
      ['default', 'Por defecto'],
      ['settings', 'Configuración'],
      ['categorization', 'Categorización'],
      ['dates', 'Fechas'],
      ['ownership', 'Propiedad'],
    ]);
    expect(schema.properties.title.title).toBe('Título');
    expect(schema.properties.description).toMatchObject({
      title: 'Descripción',
      description: 'Usado en listados de elementos y resultados de búsquedas.',
    });
    expect(schema.properties.allow_discussion).toMatchObject({
      title: 'Permitir comentarios',
      choices: [
        ['True', 'Sí'],
        ['False', 'No'],
      ],
      enumNames: ['Sí', 'No'],
      enum: ['True', 'False'],
    });
    expect((await get('/@types/Folder', 'de')).properties.title.title).toBe('Titel');
  });

  it('serves workflow state and transition titles in Spanish (translated_messages_object_workflow)', async () => {
    const body = await get('/front-page/@workflow', 'es');
    expect(body.state).toEqual({ id: 'private', title: 'Privado' });
    expect(body.transitions).toEqual([
      { '@id': `${t.suite.publicUrl}/front-page/@workflow/publish`, title: 'Publicar' },
      { '@id': `${t.suite.publicUrl}/front-page/@workflow/submit`, title: 'Enviar para publicación' },
    ]);
    expect(body.history.map((entry: any) => entry.title)).toEqual(['Privado']);
    expect((await get('/front-page/@workflow', 'fr')).state.title).toBe('Privé');
    expect((await get('/front-page?expand=workflow', 'de'))['@components'].workflow.state.title).toBe('Privat');
  });

  it('answers a transition with the new state’s title in the caller’s language', async () => {
    await t.request('POST', '/', { body: { '@type': 'Document', id: 'submitted', title: 'Submitted' } });
    const response = await t.request('POST', '/submitted/@workflow/submit', {
      body: {},
      headers: { 'Accept-Language': 'de' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ review_state: 'pending', title: 'Zur Redaktion eingereicht' });
  });

  it('serves the history in Spanish (translated_messages_object_history)', async () => {
    const body = await get('/front-page/@history', 'es');
    const version = body.find((entry: any) => entry.type === 'versioning');
    expect(version).toMatchObject({ action: 'Editado', transition_title: 'Editado', comments: 'Versión inicial' });
    const created = body.find((entry: any) => entry.review_state === 'private');
    expect(created).toMatchObject({ action: 'Crear', transition_title: 'Crear', state_title: 'Privado' });
  });

  it('serves action titles in the caller’s language', async () => {
    const titles = (body: any) =>
      Object.fromEntries(
        Object.values(body)
          .flat()
          .map((action: any) => [action.id, action.title]),
      );
    expect(titles(await get('/front-page/@actions', 'de'))).toMatchObject({
      view: 'Anzeigen',
      edit: 'Bearbeiten',
      logout: 'Abmelden',
      index_html: 'Startseite',
    });
    expect(titles(await get('/front-page/@actions', 'es'))).toMatchObject({ view: 'Vista', logout: 'Salir' });
    expect(titles(await get('/front-page/@actions'))).toMatchObject({ view: 'View', logout: 'Log out' });
  });

  it('serves the type title of content and of the summaries it lists', async () => {
    expect((await get('/front-page', 'es')).type_title).toBe('Página');
    expect((await get('/front-page', 'fr')).parent.type_title).toBe('Site');
    const root = await get('/', 'de');
    expect(root.items.find((item: any) => item['@id'].endsWith('/front-page')).type_title).toBe('Seite');
    expect((await get('/front-page')).type_title).toBe('Page');
  });

  it('serves the terms of the type and workflow vocabularies in the caller’s language', async () => {
    const types = await get('/@vocabularies/cms.app.vocabularies.ReallyUserFriendlyTypes?b_size=-1', 'es');
    expect(types.items).toContainEqual({ token: 'Folder', title: 'Carpeta' });
    expect(types.items).toContainEqual({ token: 'Discussion Item', title: 'Comentario' });
    const states = await get('/@vocabularies/cms.app.vocabularies.WorkflowStates', 'fr');
    expect(states.items).toContainEqual({ token: 'published', title: 'Publié [simple_publication_workflow]' });
    const filtered = await get('/@vocabularies/cms.app.vocabularies.ReallyUserFriendlyTypes?title=carp', 'es');
    expect(filtered.items).toEqual([{ token: 'Folder', title: 'Carpeta' }]);
  });

  it('serves control panel titles and groups in the caller’s language', async () => {
    const list = await get('/@controlpanels', 'fr');
    const navigation = list.find((panel: any) => panel['@id'].endsWith('/@controlpanels/navigation'));
    expect(navigation).toMatchObject({ title: 'Navigation', group: 'Général' });
    const security = list.find((panel: any) => panel['@id'].endsWith('/@controlpanels/security'));
    expect(security).toMatchObject({ title: 'Sécurité', group: 'Sécurité' });
    const editing = await get('/@controlpanels/editing', 'de');
    expect(editing).toMatchObject({ title: 'Bearbeitung', group: 'Inhalt' });
    expect((await get('/@controlpanels/editing')).title).toBe('Editing');
  });
});
