// Protocol traces (issue 42): a bounded, redacted ring of one sidecar's frames, and its NDJSON form.
export {
  filterTrace,
  traceFromNdjson,
  traceToNdjson,
  TraceRing,
  type TraceDirection,
  type TraceEntry,
  type TraceFilter,
  type TraceRingOptions,
} from './ring';
