import { useCallback, useState } from "react";
import type { FederatedProvider, LoginResponse, ProviderEntry } from "../api/types";
import { signInWithGoogleIdToken, signInWithProvider } from "../federated/signInWithProvider";
import { useFinishSignIn } from "./useFinishSignIn";
import { trackLoginFailure } from "./trackLoginFailure";

/**
 * The provider buttons' state: which sign-in runs and how the last one failed. `start` must be
 * called from the click handler (the provider's popup opens synchronously in it). On the sign-in
 * page (`trackFailures`) failures are tracked (spec §8); sign-ups are not.
 */
export function useProviderSignIn({ trackFailures = false }: { trackFailures?: boolean } = {}) {
  const finishSignIn = useFinishSignIn();
  const [pending, setPending] = useState<FederatedProvider | null>(null);
  const [failure, setFailure] = useState<{ error: unknown; provider: FederatedProvider } | null>(null);

  const run = useCallback(
    async (provider: FederatedProvider, flow: () => Promise<LoginResponse>) => {
      setFailure(null);
      setPending(provider);
      try {
        await finishSignIn(await flow());
      } catch (error) {
        if (trackFailures) trackLoginFailure(error, provider);
        setFailure({ error, provider });
      } finally {
        setPending(null);
      }
    },
    [finishSignIn, trackFailures],
  );

  const start = useCallback((entry: ProviderEntry) => void run(entry.provider, () => signInWithProvider(entry)), [run]);
  const withGoogleIdToken = useCallback(
    (idToken: string | undefined) => void run("google", () => signInWithGoogleIdToken(idToken)),
    [run],
  );
  const fail = useCallback(
    (error: unknown, provider: FederatedProvider) => {
      if (trackFailures) trackLoginFailure(error, provider);
      setFailure({ error, provider });
    },
    [trackFailures],
  );

  return { pending, failure, start, withGoogleIdToken, fail };
}
