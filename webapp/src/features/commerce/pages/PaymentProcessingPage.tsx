import { useEffect, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useLocalePath } from "@/i18n/useLocalePath";
import { useSocketEvent } from "@/realtime/socket";
import { fetchPurchase } from "../api/purchases";
import { fetchContract } from "../api/subscriptions";
import { CommercePage } from "../components/Section";
import { boughtPath, paymentPath, readPaymentRef, type PaymentRef } from "../lib/paths";

const POLL_MS = 2000;
/** After this the page stops waiting in place and says the outcome will come later. */
const PATIENCE_MS = 120_000;

type Outcome = { status: "pending" } | { status: "success" } | { status: "error"; reason?: string };

async function readOutcome(ref: PaymentRef, signal: AbortSignal): Promise<Outcome> {
  if (!ref.id) return { status: "pending" };
  if (ref.record === "contract") {
    const contract = await fetchContract(ref.id, signal);
    if (contract.paymentStatus === "success" || contract.active) return { status: "success" };
    if (contract.paymentStatus === "error" || contract.status === "failed") return { status: "error" };
    return { status: "pending" };
  }
  const { purchase } = await fetchPurchase(ref.id, signal);
  if (purchase.status === "success") return { status: "success" };
  if (purchase.status === "error") return { status: "error", reason: purchase.errorCode ?? undefined };
  return { status: "pending" };
}

/**
 * /payment/processing: a charge that needs an extra step. The outcome comes as
 * `user-purchase-status` on the socket; reading the purchase or contract every 2 s covers a
 * socket that is down (the read also settles it on the server). A reload keeps waiting: the page
 * needs nothing but its query.
 */
export default function PaymentProcessingPage() {
  const { t } = useTranslation("commerce");
  const localePath = useLocalePath();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const ref = readPaymentRef(search);
  const [patient, setPatient] = useState(true);

  const outcome = useQuery({
    queryKey: ["commerce", "payment-outcome", ref.record, ref.id],
    queryFn: ({ signal }) => readOutcome(ref, signal),
    refetchInterval: (query) => (query.state.data?.status === "pending" || !query.state.data ? POLL_MS : false),
    staleTime: 0,
    gcTime: 0,
    enabled: Boolean(ref.id),
  });

  // The announcement says the outcome is there: read it now instead of at the next poll.
  useSocketEvent("user-purchase-status", (message) => {
    if (message.purchaseId === ref.id && (message.status === "success" || message.status === "error"))
      void outcome.refetch();
  });
  useEffect(() => {
    const timer = setTimeout(() => setPatient(false), PATIENCE_MS);
    return () => clearTimeout(timer);
  }, []);

  const result = outcome.data;
  useEffect(() => {
    if (!result || result.status === "pending") return;
    const target =
      result.status === "success"
        ? paymentPath("success", ref)
        : paymentPath("failure", { ...ref, reason: result.reason ?? "card_declined" });
    navigate(localePath(target), { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- ref is read from the URL, stable for this page
  }, [result, navigate, localePath]);

  return (
    <CommercePage title={t("processing.title")}>
      <div className="commerce-actions" role="status" aria-live="polite">
        <span className="commerce-spinner" aria-hidden="true" />
        <p>{patient ? t("processing.waiting") : t("processing.slow")}</p>
      </div>
      {!ref.id && <p role="alert">{t("processing.unknown")}</p>}
      {(!patient || !ref.id) && (
        <Link to={localePath(ref.record === "contract" ? "/account/subscription" : "/account/ppv")}>
          {t("processing.seePurchases")}
        </Link>
      )}
      <Link to={localePath(boughtPath(ref))}>{t("processing.back")}</Link>
    </CommercePage>
  );
}
