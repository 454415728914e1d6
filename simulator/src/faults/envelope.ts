/**
 * Faults of the §2.1 envelope and the §7 error model: each overrides one seam of envelope.ts.
 * `validation.422-status` is here too: it changes the status of the §7 error model, not a rule of
 * validation. Probes: simulator/test/faults/envelope.test.ts.
 */
import {
  answeredPath,
  answerTime,
  ApiError,
  envelopeMediaType,
  envelopeMetadata,
  errorObject,
  errorStatus,
  internalError,
  sendError,
  successFlag,
  unknownRoute,
  unparsableBody,
} from '../envelope.ts';
import { override } from '../seam.ts';
import { defineFaults } from './define.ts';

/** The envelope and error-model faults. */
export const ENVELOPE_FAULTS = defineFaults([
  {
    name: 'envelope.error-as-html',
    clauses: ['2.1/json-content-type'],
    description:
      'The error envelope is served with Content-Type text/html (a framework default for error pages): the body is still the JSON envelope, the media type says HTML.',
    override: override(envelopeMediaType, (next) => (kind) => (kind === 'error' ? 'text/html; charset=utf-8' : next(kind))),
  },
  {
    name: 'envelope.drop-version',
    clauses: ['2.1/metadata-required', '9.1/version-every-response'],
    description: '`metadata.version` is left out of every envelope.',
    override: override(envelopeMetadata, (next) => (timestamp, version, path) => {
      const m = next(timestamp, version, path);
      delete m.version;
      return m;
    }),
  },
  {
    name: 'envelope.success-string',
    clauses: ['2.1/success-envelope'],
    description: '`success` is the string "true"/"false" instead of a boolean.',
    override: override(successFlag, () => (value) => String(value)),
  },
  {
    name: 'envelope.parse-as-500',
    clauses: ['7/parse-400'],
    description: 'A body that is not valid JSON answers 500 INTERNAL_SERVER_ERROR instead of 400 PARSE.',
    override: override(unparsableBody, () => () => internalError()),
  },
  {
    name: 'envelope.parse-as-validation',
    clauses: ['7/parse-400'],
    description: 'A body that is not valid JSON answers 400 VALIDATION_ERROR instead of 400 PARSE.',
    override: override(unparsableBody, () => () => new ApiError(400, 'VALIDATION_ERROR', 'Request body is not valid JSON')),
  },
  {
    name: 'envelope.not-found-code',
    clauses: ['7/route-not-found'],
    description: 'An unknown route answers 404 RESOURCE_NOT_FOUND instead of NOT_FOUND.',
    override: override(unknownRoute, () => (_request, reply) => sendError(reply, new ApiError(404, 'RESOURCE_NOT_FOUND', 'Route not found'))),
  },
  {
    name: 'envelope.path-route-pattern',
    clauses: ['2.1/metadata-path'],
    description: 'metadata.path is the route pattern (`/assistants/:id`) instead of the requested path.',
    override: override(answeredPath, (next) => (requested, pattern) => pattern || next(requested, pattern)),
  },
  {
    name: 'envelope.not-found-without-message',
    clauses: ['7/error-envelope'],
    description: 'A 404 error envelope carries no error.message.',
    override: override(errorObject, (next) => (err) => {
      const error = next(err);
      if (err.status === 404) delete error.message;
      return error;
    }),
  },
  {
    name: 'envelope.timestamp-local-offset',
    clauses: ['2.1/metadata-required'],
    description: 'metadata.timestamp is the right instant written in local time (UTC+02:00) instead of UTC.',
    override: override(answerTime, () => (now) => `${new Date(now + 2 * 3_600_000).toISOString().slice(0, 23)}+02:00`),
  },
  {
    name: 'envelope.timestamp-cached',
    clauses: ['2.1/metadata-timestamp-current'],
    description: 'metadata.timestamp is five minutes old (a cached envelope) instead of the time the server answered.',
    override: override(answerTime, (next) => (now) => next(now - 5 * 60_000)),
  },
  {
    name: 'validation.422-status',
    clauses: ['4.1/validation-error-details', '7/validation-details'],
    description: 'Validation failures answer 422 instead of 400 VALIDATION_ERROR.',
    override: override(errorStatus, (next) => (err) => (err.status === 400 && err.code === 'VALIDATION_ERROR' ? 422 : next(err))),
  },
]);
