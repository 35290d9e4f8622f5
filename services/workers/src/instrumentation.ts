import { startTelemetry } from '@svc/telemetry';

startTelemetry({ service: 'workers' });
