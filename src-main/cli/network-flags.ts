// The office-network flags shared by `enroll` and `run` (README "Office networks"). Given
// flags are saved to settings.json, so that the next `run` (and the dashboard's Settings) use
// them too; the proxy URL's own validity is judged where it is used, so that a bad one is
// reported like any failure to reach the server (enroll: exit 7 with the reason).
import { z } from 'zod';
import type { SettingsPatch } from '../ipc/contract.ts';

export const networkFlags = {
  proxy: { type: 'string' },
  'server-ca': { type: 'string' },
  'checks-ca': { type: 'string' },
  'checks-use-proxy': { type: 'boolean' },
  'egress-policy': { type: 'string' },
} as const;

export const networkFlagsSchema = z.object({
  proxy: z.string().trim().min(1, 'needs a proxy URL, e.g. http://proxy.example:3128').optional(),
  'server-ca': z.string().trim().min(1, 'needs a PEM file path').optional(),
  'checks-ca': z.string().trim().min(1, 'needs a PEM file path').optional(),
  'checks-use-proxy': z.boolean().optional(),
  'egress-policy': z.enum(['open', 'strict'], { error: 'must be open or strict' }).optional(),
});

export type NetworkFlags = z.infer<typeof networkFlagsSchema>;

/** The settings the given flags change (an absent flag changes nothing). */
export function networkPatch(flags: NetworkFlags): SettingsPatch {
  return {
    ...(flags.proxy === undefined ? {} : { proxyUrl: flags.proxy }),
    ...(flags['server-ca'] === undefined ? {} : { serverCaFile: flags['server-ca'] }),
    ...(flags['checks-ca'] === undefined ? {} : { checksCaFile: flags['checks-ca'] }),
    ...(flags['checks-use-proxy'] === undefined ? {} : { checksUseProxy: flags['checks-use-proxy'] }),
    ...(flags['egress-policy'] === undefined ? {} : { egressPolicy: flags['egress-policy'] }),
  };
}
