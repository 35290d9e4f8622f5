/** The input file's lines as the upload check counts them (shared with the workers). */
export { splitJsonl as splitLines } from '@svc/messages';
