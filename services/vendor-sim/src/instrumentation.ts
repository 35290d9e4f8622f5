// Loaded before anything else so the http and express instrumentations patch their modules first.
import { startTelemetry } from '@svc/telemetry';

startTelemetry({ service: 'vendor-sim' });
