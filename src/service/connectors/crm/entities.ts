/**
 * The CRM's standard object types as data: type ids, id param names, writable/required properties,
 * enums, defaults and the property lists the spec and crm-behaviour.md give. Everything else in the
 * connector reads this table instead of switching on entity names.
 */

/**
 * The nine standard record entities: the one list the connector's other files import. The order is data: custom
 * object types derive their association type ids from it (custom-schema.ts), so a new entity goes at the end.
 */
export const RECORD_ENTITIES = [
  'contacts',
  'companies',
  'deals',
  'tickets',
  'notes',
  'calls',
  'emails',
  'meetings',
  'tasks',
] as const;
export type RecordEntity = (typeof RECORD_ENTITIES)[number];

/** Kinds of value a property holds; decides validation on write and comparison in search. */
export type PropertyKind = 'string' | 'number' | 'integer' | 'datetime';

export interface EntitySpec {
  readonly name: RecordEntity;
  /** Upstream object type id, e.g. "0-1". */
  readonly typeId: string;
  /** Singular name used in association type names, e.g. "contact". */
  readonly singular: string;
  /** The id param of get/update/delete, e.g. "contactId". */
  readonly idParam: string;
  /** True for notes, calls, emails, meetings, tasks (delete = archive; hs_createdate naming). */
  readonly activity: boolean;
  readonly createDateProp: string;
  readonly modifiedDateProp: string;
  /** Properties a caller may set; createOnly ones are rejected on update. */
  readonly writable: readonly string[];
  readonly createOnly: readonly string[];
  /** Required (non-empty) on create. */
  readonly required: readonly string[];
  /** Enforced allowed values. Lists the spec marks as examples are in `examples`, never enforced. */
  readonly enums: Readonly<Record<string, readonly string[]>>;
  readonly examples: Readonly<Record<string, readonly string[]>>;
  /** Values set on create when the caller gives none ("now" means the request time). */
  readonly defaults: Readonly<Record<string, string>>;
  /** Non-string kinds; every other property is a plain string. */
  readonly kinds: Readonly<Record<string, PropertyKind>>;
  /** Returned when the caller names no properties (null values are omitted). */
  readonly defaultProperties: readonly string[];
  /** Searched by api_search's `query` text. */
  readonly queryProperties: readonly string[];
  /** properties.* fields of context_store_search (spec's searchable fields table). */
  readonly contextProperties: readonly string[];
  /** Top-level association arrays of context_store_search docs. */
  readonly contextArrays: readonly string[];
  /** One-line descriptions of writable properties, for schemas and docs. */
  readonly descriptions: Readonly<Record<string, string>>;
}

const OWNER = 'crm_owner_id';
const ownerDoc = { [OWNER]: 'Id of the owning user.' };
const ACTIVITY_TRIO = ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id'];
const timestampDoc = {
  hs_timestamp: 'When the activity happened (ISO 8601; epoch milliseconds accepted). Defaults to now.',
};

const contacts: EntitySpec = {
  name: 'contacts',
  typeId: '0-1',
  singular: 'contact',
  idParam: 'contactId',
  activity: false,
  createDateProp: 'createdate',
  modifiedDateProp: 'lastmodifieddate',
  writable: ['email', 'firstname', 'lastname', 'phone', 'company', 'website', 'lifecyclestage', 'jobtitle', OWNER],
  createOnly: [],
  required: ['email'],
  enums: {},
  examples: {
    lifecyclestage: [
      'subscriber',
      'lead',
      'marketingqualifiedlead',
      'salesqualifiedlead',
      'opportunity',
      'customer',
      'evangelist',
      'other',
    ],
  },
  defaults: {},
  kinds: {},
  defaultProperties: ['firstname', 'lastname', 'email', 'lastmodifieddate', 'hs_object_id', 'createdate'],
  queryProperties: [
    'firstname',
    'lastname',
    'email',
    'phone',
    'hs_additional_emails',
    'fax',
    'mobilephone',
    'company',
    'hs_marketable_until_renewal',
  ],
  contextProperties: [
    'associatedcompanyid',
    'createdate',
    'email',
    'firstname',
    'hs_object_id',
    OWNER,
    'lastmodifieddate',
    'lastname',
  ],
  contextArrays: ['companies'],
  descriptions: {
    email: 'Email address; unique per connector (case-insensitive). Required on create.',
    firstname: 'First name.',
    lastname: 'Last name.',
    phone: 'Phone number.',
    company: 'Company name as text.',
    website: 'Website URL.',
    lifecyclestage: 'Lifecycle stage (examples listed; any value accepted).',
    jobtitle: 'Job title.',
    ...ownerDoc,
  },
};

const companies: EntitySpec = {
  name: 'companies',
  typeId: '0-2',
  singular: 'company',
  idParam: 'companyId',
  activity: false,
  createDateProp: 'createdate',
  modifiedDateProp: 'hs_lastmodifieddate',
  writable: [
    'name',
    'domain',
    'description',
    'phone',
    'industry',
    'city',
    'state',
    'country',
    'zip',
    'numberofemployees',
    'annualrevenue',
    'lifecyclestage',
    OWNER,
    'website',
  ],
  createOnly: [],
  required: ['name'],
  enums: {},
  examples: {
    lifecyclestage: contacts.examples.lifecyclestage!,
    industry: [
      'COMPUTER_SOFTWARE',
      'INFORMATION_TECHNOLOGY_AND_SERVICES',
      'INTERNET',
      'FINANCIAL_SERVICES',
      'MARKETING_AND_ADVERTISING',
      'EDUCATION_MANAGEMENT',
    ],
  },
  defaults: {},
  kinds: { numberofemployees: 'integer', annualrevenue: 'number' },
  defaultProperties: ['name', 'domain', 'createdate', 'hs_lastmodifieddate', 'hs_object_id'],
  queryProperties: ['website', 'phone', 'name', 'domain'],
  contextProperties: ['createdate', 'domain', 'hs_lastmodifieddate', 'hs_object_id', OWNER, 'name'],
  contextArrays: ['contacts'],
  descriptions: {
    name: 'Company name. Required on create.',
    domain: 'Web domain, e.g. example.com.',
    description: 'Free text description.',
    phone: 'Phone number.',
    industry: 'Industry (examples listed; any value accepted).',
    city: 'City.',
    state: 'State or region.',
    country: 'Country.',
    zip: 'Postal code.',
    numberofemployees: 'Number of employees (integer).',
    annualrevenue: 'Annual revenue (number).',
    lifecyclestage: 'Lifecycle stage (examples listed; any value accepted).',
    website: 'Website URL.',
    ...ownerDoc,
  },
};

/** Stages of the default deal pipeline (crm-behaviour.md §9), in display order. */
export const DEAL_STAGES = [
  'appointmentscheduled',
  'qualifiedtobuy',
  'presentationscheduled',
  'decisionmakerboughtin',
  'contractsent',
  'closedwon',
  'closedlost',
] as const;

const deals: EntitySpec = {
  name: 'deals',
  typeId: '0-3',
  singular: 'deal',
  idParam: 'dealId',
  activity: false,
  createDateProp: 'createdate',
  modifiedDateProp: 'hs_lastmodifieddate',
  writable: ['dealname', 'amount', 'dealstage', 'pipeline', 'closedate', 'dealtype', 'description', OWNER],
  createOnly: [],
  required: ['dealname'],
  enums: {},
  examples: { dealstage: DEAL_STAGES, dealtype: ['newbusiness', 'existingbusiness'] },
  defaults: { pipeline: 'default' },
  kinds: { amount: 'number', closedate: 'datetime' },
  defaultProperties: [
    'dealname',
    'amount',
    'closedate',
    'pipeline',
    'dealstage',
    'createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
  ],
  queryProperties: ['dealname', 'pipeline', 'dealstage', 'description', 'dealtype'],
  contextProperties: [
    'amount',
    'closedate',
    'createdate',
    'dealname',
    'dealstage',
    'hs_lastmodifieddate',
    'hs_object_id',
    OWNER,
    'pipeline',
  ],
  contextArrays: ['companies', 'contacts', 'line_items'],
  descriptions: {
    dealname: 'Deal name. Required on create.',
    amount: 'Deal amount (number).',
    dealstage: 'Stage id in the pipeline (examples listed; any value accepted).',
    pipeline: 'Pipeline id; defaults to "default".',
    closedate: 'Expected close date (ISO 8601).',
    dealtype: 'Deal type (examples listed; any value accepted).',
    description: 'Free text description.',
    ...ownerDoc,
  },
};

/** The default ticket pipeline "0" and its stages (crm-behaviour.md §9). */
export const TICKET_PIPELINE = '0';
export const TICKET_STAGES = ['1', '2', '3', '4'] as const;

const tickets: EntitySpec = {
  name: 'tickets',
  typeId: '0-5',
  singular: 'ticket',
  idParam: 'ticketId',
  activity: false,
  createDateProp: 'createdate',
  modifiedDateProp: 'hs_lastmodifieddate',
  writable: [
    'subject',
    'content',
    'hs_pipeline',
    'hs_pipeline_stage',
    'hs_ticket_priority',
    'hs_ticket_category',
    OWNER,
  ],
  createOnly: [],
  required: ['subject', 'hs_pipeline', 'hs_pipeline_stage'],
  enums: {
    hs_ticket_priority: ['LOW', 'MEDIUM', 'HIGH'],
    hs_pipeline: [TICKET_PIPELINE],
    hs_pipeline_stage: TICKET_STAGES,
  },
  examples: {},
  defaults: {},
  kinds: {},
  defaultProperties: [
    'content',
    'hs_pipeline',
    'hs_pipeline_stage',
    'hs_ticket_category',
    'hs_ticket_priority',
    'subject',
    'createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
  ],
  queryProperties: ['subject', 'content', 'hs_pipeline_stage', 'hs_ticket_category', 'hs_ticket_id'],
  contextProperties: [
    'content',
    'createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
    'hs_pipeline',
    'hs_pipeline_stage',
    'hs_ticket_category',
    'hs_ticket_priority',
    'subject',
  ],
  contextArrays: ['companies', 'contacts'],
  descriptions: {
    subject: 'Ticket subject. Required on create.',
    content: 'Ticket text.',
    hs_pipeline: 'Pipeline id; "0" is the default (and only) pipeline. Required on create.',
    hs_pipeline_stage: 'Stage id: "1" New, "2" Waiting on contact, "3" Waiting on us, "4" Closed. Required on create.',
    hs_ticket_priority: 'Priority.',
    hs_ticket_category: 'Category.',
    ...ownerDoc,
  },
};

const notes: EntitySpec = {
  name: 'notes',
  typeId: '0-46',
  singular: 'note',
  idParam: 'noteId',
  activity: true,
  createDateProp: 'hs_createdate',
  modifiedDateProp: 'hs_lastmodifieddate',
  writable: ['hs_note_body', 'hs_timestamp', OWNER],
  createOnly: [],
  required: ['hs_note_body'],
  enums: {},
  examples: {},
  defaults: { hs_timestamp: 'now' },
  kinds: { hs_timestamp: 'datetime' },
  defaultProperties: ACTIVITY_TRIO,
  queryProperties: ['hs_note_body'],
  contextProperties: ['hs_createdate', 'hs_lastmodifieddate', 'hs_note_body', 'hs_object_id', 'hs_timestamp', OWNER],
  contextArrays: [],
  descriptions: { hs_note_body: 'Note text; HTML allowed. Required on create.', ...timestampDoc, ...ownerDoc },
};

const calls: EntitySpec = {
  name: 'calls',
  typeId: '0-48',
  singular: 'call',
  idParam: 'callId',
  activity: true,
  createDateProp: 'hs_createdate',
  modifiedDateProp: 'hs_lastmodifieddate',
  writable: [
    'hs_call_body',
    'hs_call_direction',
    'hs_call_disposition',
    'hs_call_duration',
    'hs_call_from_number',
    'hs_call_to_number',
    'hs_call_status',
    'hs_call_title',
    'hs_timestamp',
    OWNER,
  ],
  createOnly: [],
  required: [],
  enums: { hs_call_direction: ['INBOUND', 'OUTBOUND'] },
  examples: { hs_call_status: ['COMPLETED', 'BUSY', 'NO_ANSWER', 'FAILED', 'CANCELED'] },
  defaults: { hs_timestamp: 'now' },
  kinds: { hs_timestamp: 'datetime', hs_call_duration: 'integer' },
  defaultProperties: ACTIVITY_TRIO,
  queryProperties: ['hs_call_title', 'hs_body_preview'],
  contextProperties: [
    'hs_call_body',
    'hs_call_direction',
    'hs_call_duration',
    'hs_call_status',
    'hs_call_title',
    'hs_createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
    'hs_timestamp',
    OWNER,
  ],
  contextArrays: [],
  descriptions: {
    hs_call_body: 'Call notes.',
    hs_call_direction: 'Direction of the call.',
    hs_call_disposition: 'Outcome id of the call.',
    hs_call_duration: 'Duration in milliseconds (integer).',
    hs_call_from_number: 'Calling number.',
    hs_call_to_number: 'Called number.',
    hs_call_status: 'Call status (examples listed; any value accepted).',
    hs_call_title: 'Title of the call.',
    ...timestampDoc,
    ...ownerDoc,
  },
};

const emails: EntitySpec = {
  name: 'emails',
  typeId: '0-49',
  singular: 'email',
  idParam: 'emailId',
  activity: true,
  createDateProp: 'hs_createdate',
  modifiedDateProp: 'hs_lastmodifieddate',
  writable: [
    'hs_email_subject',
    'hs_email_text',
    'hs_email_html',
    'hs_email_direction',
    'hs_email_status',
    'hs_email_sender_email',
    'hs_email_to_email',
    'hs_timestamp',
    OWNER,
  ],
  createOnly: ['hs_email_to_email'],
  required: ['hs_email_direction'],
  enums: {
    hs_email_direction: ['EMAIL', 'INCOMING_EMAIL', 'FORWARDED_EMAIL'],
    hs_email_status: ['BOUNCED', 'FAILED', 'SCHEDULED', 'SENDING', 'SENT', 'DRAFT'],
  },
  examples: {},
  defaults: { hs_timestamp: 'now' },
  kinds: { hs_timestamp: 'datetime' },
  defaultProperties: ACTIVITY_TRIO,
  queryProperties: ['hs_email_subject'],
  contextProperties: [
    'hs_createdate',
    'hs_email_direction',
    'hs_email_status',
    'hs_email_subject',
    'hs_email_text',
    'hs_lastmodifieddate',
    'hs_object_id',
    'hs_timestamp',
    OWNER,
  ],
  contextArrays: [],
  descriptions: {
    hs_email_subject: 'Subject line.',
    hs_email_text: 'Plain text body.',
    hs_email_html: 'HTML body.',
    hs_email_direction: 'EMAIL sent, INCOMING_EMAIL received, FORWARDED_EMAIL forwarded. Required on create.',
    hs_email_status: 'Send status.',
    hs_email_sender_email: 'Sender address.',
    hs_email_to_email: 'Recipient address (create only).',
    ...timestampDoc,
    ...ownerDoc,
  },
};

const meetings: EntitySpec = {
  name: 'meetings',
  typeId: '0-47',
  singular: 'meeting',
  idParam: 'meetingId',
  activity: true,
  createDateProp: 'hs_createdate',
  modifiedDateProp: 'hs_lastmodifieddate',
  writable: [
    'hs_meeting_title',
    'hs_meeting_body',
    'hs_meeting_start_time',
    'hs_meeting_end_time',
    'hs_meeting_location',
    'hs_meeting_outcome',
    'hs_internal_meeting_notes',
    'hs_timestamp',
    OWNER,
  ],
  createOnly: [],
  required: ['hs_meeting_title'],
  enums: {},
  examples: { hs_meeting_outcome: ['SCHEDULED', 'COMPLETED', 'RESCHEDULED', 'NO_SHOW', 'CANCELED'] },
  // hs_timestamp defaults to the start time when there is one, else now (crm-behaviour.md §3.3).
  defaults: { hs_timestamp: 'now' },
  kinds: { hs_timestamp: 'datetime', hs_meeting_start_time: 'datetime', hs_meeting_end_time: 'datetime' },
  defaultProperties: ACTIVITY_TRIO,
  queryProperties: ['hs_meeting_title', 'hs_meeting_body'],
  contextProperties: [
    'hs_createdate',
    'hs_lastmodifieddate',
    'hs_meeting_body',
    'hs_meeting_end_time',
    'hs_meeting_location',
    'hs_meeting_outcome',
    'hs_meeting_start_time',
    'hs_meeting_title',
    'hs_object_id',
    'hs_timestamp',
    OWNER,
  ],
  contextArrays: [],
  descriptions: {
    hs_meeting_title: 'Meeting title. Required on create.',
    hs_meeting_body: 'Description; HTML allowed.',
    hs_meeting_start_time: 'Start (ISO 8601).',
    hs_meeting_end_time: 'End (ISO 8601).',
    hs_meeting_location: 'Location.',
    hs_meeting_outcome: 'Outcome (examples listed; any value accepted).',
    hs_internal_meeting_notes: 'Internal notes.',
    hs_timestamp: 'When the meeting happens (ISO 8601). Defaults to the start time, else now.',
    ...ownerDoc,
  },
};

const tasks: EntitySpec = {
  name: 'tasks',
  typeId: '0-27',
  singular: 'task',
  idParam: 'taskId',
  activity: true,
  createDateProp: 'hs_createdate',
  modifiedDateProp: 'hs_lastmodifieddate',
  writable: [
    'hs_task_body',
    'hs_task_subject',
    'hs_task_status',
    'hs_task_priority',
    'hs_task_type',
    'hs_task_reminders',
    'hs_timestamp',
    OWNER,
  ],
  createOnly: [],
  required: ['hs_task_subject'],
  enums: {
    hs_task_status: ['NOT_STARTED', 'IN_PROGRESS', 'WAITING', 'COMPLETED', 'DEFERRED'],
    hs_task_priority: ['LOW', 'MEDIUM', 'HIGH'],
    hs_task_type: ['TODO', 'CALL', 'EMAIL'],
  },
  examples: {},
  defaults: { hs_timestamp: 'now', hs_task_status: 'NOT_STARTED', hs_task_type: 'TODO' },
  kinds: { hs_timestamp: 'datetime', hs_task_reminders: 'integer' },
  defaultProperties: ACTIVITY_TRIO,
  queryProperties: ['hs_task_body', 'hs_task_subject'],
  contextProperties: [
    'hs_createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
    'hs_task_body',
    'hs_task_priority',
    'hs_task_status',
    'hs_task_subject',
    'hs_task_type',
    'hs_timestamp',
    OWNER,
  ],
  contextArrays: [],
  descriptions: {
    hs_task_body: 'Task notes; HTML allowed.',
    hs_task_subject: 'Task title. Required on create.',
    hs_task_status: 'Status; defaults to NOT_STARTED.',
    hs_task_priority: 'Priority.',
    hs_task_type: 'Type; defaults to TODO.',
    hs_task_reminders: 'Reminder time in epoch milliseconds (integer).',
    hs_timestamp: 'Due date (ISO 8601; epoch milliseconds accepted). Defaults to now.',
    ...ownerDoc,
  },
};

/** The entity table, by entity name. */
export const ENTITIES: Readonly<Record<RecordEntity, EntitySpec>> = {
  contacts,
  companies,
  deals,
  tickets,
  notes,
  calls,
  emails,
  meetings,
  tasks,
};

/** The entity whose records link two records (list, create, delete); the catalog flags it for the engine. */
export const ASSOCIATIONS_ENTITY = 'associations';

/** True when the name is one of the nine standard record entities. */
export function isRecordEntity(name: string): name is RecordEntity {
  return (RECORD_ENTITIES as readonly string[]).includes(name);
}

/** Entities with api_search (the four business objects). */
export const SEARCHABLE_ENTITIES = ['contacts', 'companies', 'deals', 'tickets'] as const satisfies RecordEntity[];
export type SearchableEntity = (typeof SEARCHABLE_ENTITIES)[number];
/** Entities with delete (archive). */
export const ACTIVITY_ENTITIES = ['notes', 'calls', 'emails', 'meetings', 'tasks'] as const satisfies RecordEntity[];

/** Automatic properties of an entity (set by the store, never by callers). */
export function automaticProperties(spec: { createDateProp: string; modifiedDateProp: string }): string[] {
  return ['hs_object_id', spec.createDateProp, spec.modifiedDateProp];
}

/** Every property name a read may return for a standard entity (others asked for are ignored). */
export function knownProperties(spec: EntitySpec): Set<string> {
  return new Set([
    ...spec.writable,
    ...automaticProperties(spec),
    ...spec.defaultProperties,
    ...spec.queryProperties,
    ...spec.contextProperties,
  ]);
}
