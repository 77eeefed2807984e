import { createServer, type Server } from 'node:http';

/** One request the receiver got. */
export interface OtlpRequest {
  readonly path: string;
  readonly contentType: string;
  readonly body: Buffer;
}

/** A span as decoded from an OTLP/HTTP JSON payload, attributes as a plain object. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  readonly kind: number;
  readonly attributes: Record<string, unknown>;
  readonly events: { name: string; attributes: Record<string, unknown> }[];
  readonly status: { code?: number; message?: string };
  readonly resource: Record<string, unknown>;
}

/** One data point of a metric as decoded from an OTLP/HTTP JSON payload: a sum's value, a histogram's count. */
export interface ReceivedPoint {
  readonly metric: string;
  readonly unit: string;
  readonly attributes: Record<string, unknown>;
  /** A sum's value, or a histogram's count. */
  readonly value: number;
  readonly resource: Record<string, unknown>;
}

/** A tiny OTLP/HTTP receiver on 127.0.0.1: keeps every request, answers an empty success. */
export interface OtlpReceiver {
  /** The base endpoint, for OTEL_EXPORTER_OTLP_ENDPOINT (the exporter adds /v1/traces). */
  readonly endpoint: string;
  readonly requests: OtlpRequest[];
  /** Every span of every JSON request received so far. */
  spans(): ReceivedSpan[];
  /** Every metric data point of every JSON request to /v1/metrics so far (cumulative: later ones repeat). */
  metrics(): ReceivedPoint[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const requests: OtlpRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const contentType = req.headers['content-type'] ?? '';
      requests.push({ path: req.url ?? '', contentType, body: Buffer.concat(chunks) });
      // An empty ExportTraceServiceResponse: `{}` in JSON, zero bytes in protobuf.
      if (contentType.includes('json')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      } else {
        res.writeHead(200, { 'content-type': 'application/x-protobuf' });
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('no port');
  return {
    endpoint: `http://127.0.0.1:${addr.port}`,
    requests,
    spans: () => requests.filter((r) => r.contentType.includes('json')).flatMap((r) => decode(r.body)),
    metrics: () =>
      requests
        .filter((r) => r.contentType.includes('json') && r.path.endsWith('/v1/metrics'))
        .flatMap((r) => decodeMetrics(r.body)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}

function attrs(list: KeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const kv of list ?? []) {
    const v = kv.value;
    out[kv.key] =
      v.stringValue ?? (v.intValue !== undefined ? Number(v.intValue) : undefined) ?? v.doubleValue ?? v.boolValue;
  }
  return out;
}

function decode(body: Buffer): ReceivedSpan[] {
  const doc = JSON.parse(body.toString('utf8')) as {
    resourceSpans?: {
      resource?: { attributes?: KeyValue[] };
      scopeSpans?: { spans?: Record<string, unknown>[] }[];
    }[];
  };
  const out: ReceivedSpan[] = [];
  for (const rs of doc.resourceSpans ?? []) {
    const resource = attrs(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? [])
        out.push({
          traceId: String(s.traceId),
          spanId: String(s.spanId),
          parentSpanId: typeof s.parentSpanId === 'string' ? s.parentSpanId : '',
          name: String(s.name),
          kind: Number(s.kind),
          attributes: attrs(s.attributes as KeyValue[]),
          events: ((s.events as { name: string; attributes?: KeyValue[] }[] | undefined) ?? []).map((e) => ({
            name: e.name,
            attributes: attrs(e.attributes),
          })),
          status: (s.status as { code?: number; message?: string } | undefined) ?? {},
          resource,
        });
  }
  return out;
}

interface MetricJson {
  name: string;
  unit?: string;
  sum?: { dataPoints?: { attributes?: KeyValue[]; asInt?: string | number; asDouble?: number }[] };
  histogram?: { dataPoints?: { attributes?: KeyValue[]; count?: string | number }[] };
  gauge?: { dataPoints?: { attributes?: KeyValue[]; asInt?: string | number; asDouble?: number }[] };
}

function decodeMetrics(body: Buffer): ReceivedPoint[] {
  const doc = JSON.parse(body.toString('utf8')) as {
    resourceMetrics?: { resource?: { attributes?: KeyValue[] }; scopeMetrics?: { metrics?: MetricJson[] }[] }[];
  };
  const out: ReceivedPoint[] = [];
  for (const rm of doc.resourceMetrics ?? []) {
    const resource = attrs(rm.resource?.attributes);
    for (const sm of rm.scopeMetrics ?? [])
      for (const m of sm.metrics ?? []) {
        const base = { metric: m.name, unit: m.unit ?? '', resource };
        for (const p of [...(m.sum?.dataPoints ?? []), ...(m.gauge?.dataPoints ?? [])])
          out.push({ ...base, attributes: attrs(p.attributes), value: Number(p.asInt ?? p.asDouble ?? 0) });
        for (const p of m.histogram?.dataPoints ?? [])
          out.push({ ...base, attributes: attrs(p.attributes), value: Number(p.count ?? 0) });
      }
  }
  return out;
}
