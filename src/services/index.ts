import type { Store } from '../store/store.js';
import { AuditService } from './events/audit.service.js';
import { AuthService } from './auth/auth.service.js';
import { HistoryService } from './events/history.service.js';
import { RevisionsService } from './revisions/revisions.service.js';
import { WebhooksService } from './webhooks/webhooks.service.js';
import { GroupsService } from './groups/groups.service.js';
import { PeopleService } from './auth/people.service.js';
import { ScopesService } from './auth/scopes.service.js';
import { BitListService } from './bits/list.service.js';
import { BitRestoreService } from './bits/restore.service.js';
import { BitsService } from './bits/bits.service.js';
import { CommentsService } from './trails/comments.service.js';
import { ConnectionsService } from './bits/connections.service.js';
import { FlowsService } from './flows/flows.service.js';
import { ExportService } from './folder/export.service.js';
import { ImportService } from './folder/import.service.js';
import { SampleService } from './folder/sample.service.js';
import { InboxService } from './trails/inbox.service.js';
import { NotificationsService } from './notifications/notifications.service.js';
import { OAuthService } from './auth/oauth.service.js';
import { ReferencesService } from './references/references.service.js';
import { SigninService } from './auth/signin.service.js';
import { StepFormService } from './trails/step-form.service.js';
import { TrailPeopleService } from './trails/people.service.js';
import { TrailsService } from './trails/trails.service.js';
import { TrailSearchService } from './trails/trail-search.service.js';

export { startConvertPool, stopConvertPool, convertPoolOptionsFromEnv } from './convert/pool.js';

/** Every service over one store: what the MCP tools, REST routes and CLI call. */
export interface Services {
  store: Store;
  auth: AuthService;
  audit: AuditService;
  history: HistoryService;
  revisions: RevisionsService;
  webhooks: WebhooksService;
  groups: GroupsService;
  people: PeopleService;
  scopes: ScopesService;
  flows: FlowsService;
  folderExport: ExportService;
  folderImport: ImportService;
  sample: SampleService;
  bitList: BitListService;
  bitRestore: BitRestoreService;
  bits: BitsService;
  connections: ConnectionsService;
  references: ReferencesService;
  trails: TrailsService;
  signin: SigninService;
  inbox: InboxService;
  stepForm: StepFormService;
  oauth: OAuthService;
  trailPeople: TrailPeopleService;
  comments: CommentsService;
  notifications: NotificationsService;
  trailSearch: TrailSearchService;
}

export function createServices(store: Store): Services {
  const references = new ReferencesService(store);
  const trails = new TrailsService(store);
  const bits = new BitsService(store, references);
  const flows = new FlowsService(store);
  const folderExport = new ExportService(store);
  const folderImport = new ImportService(store, bits, flows, references, folderExport);
  const people = new PeopleService(store);
  return {
    folderExport,
    folderImport,
    sample: new SampleService(store, folderImport, flows),
    bits,
    connections: new ConnectionsService(store),
    store,
    auth: new AuthService(store),
    audit: new AuditService(store),
    history: new HistoryService(store),
    revisions: new RevisionsService(store, bits, flows, references),
    webhooks: new WebhooksService(store),
    groups: new GroupsService(store),
    people,
    scopes: new ScopesService(store),
    flows,
    bitList: new BitListService(store),
    bitRestore: new BitRestoreService(store),
    references,
    trails,
    signin: new SigninService(store),
    inbox: new InboxService(store),
    stepForm: new StepFormService(store, trails),
    oauth: new OAuthService(store),
    trailPeople: new TrailPeopleService(store, trails),
    comments: new CommentsService(store),
    notifications: new NotificationsService(store),
    trailSearch: new TrailSearchService(store, people),
  };
}
