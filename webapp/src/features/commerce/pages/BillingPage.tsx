import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useErrorText } from "@/api/errors";
import { notify } from "@/lib/notify";
import { FormAlert } from "@/ui/form/FormAlert";
import { useRemoveCard, useReplaceCard, useStoredCard } from "../api/cards";
import type { Payment } from "../api/pay";
import { CardForm } from "../components/CardForm";
import { AccountSection, Loading } from "../components/Section";

/** /account/billing: the stored card (renewals charge it), replaced or removed here. */
export default function BillingPage() {
  const { t } = useTranslation("commerce");
  const errorText = useErrorText();
  const card = useStoredCard();
  const replace = useReplaceCard();
  const remove = useRemoveCard();
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const onReplace = async (payment: Payment) => {
    if (payment.kind !== "card") return;
    await replace.mutateAsync(payment.card);
    setEditing(false);
    void notify.success(t("billing.saved"));
  };
  const onRemove = async () => {
    try {
      await remove.mutateAsync();
      setConfirming(false);
      void notify.success(t("billing.removed"));
    } catch (error) {
      void notify.danger(errorText(error));
    }
  };

  return (
    <AccountSection title={t("billing.title")}>
      {card.isPending ? (
        <Loading label={t("loading")} />
      ) : card.isError ? (
        <FormAlert tone="danger">{errorText(card.error)}</FormAlert>
      ) : (
        <>
          {card.data ? (
            <div className="commerce-card">
              <p>
                {t("card.storedCard", {
                  brand: t(`card.brands.${card.data.brand}`),
                  last4: card.data.last4,
                  month: String(card.data.expMonth).padStart(2, "0"),
                  year: card.data.expYear,
                })}
              </p>
              {card.data.holder && <p>{card.data.holder}</p>}
              <p className="form-field__hint">{t("billing.renewalsUseIt")}</p>
              {!editing && !confirming && (
                <div className="commerce-actions">
                  <button type="button" className="btn btn--primary" onClick={() => setEditing(true)}>
                    {t("billing.replace")}
                  </button>
                  <button type="button" className="btn" onClick={() => setConfirming(true)}>
                    {t("billing.remove")}
                  </button>
                </div>
              )}
              {confirming && (
                <div role="group" aria-label={t("billing.removeConfirm")} className="commerce-actions">
                  <p>{t("billing.removeConfirm")}</p>
                  <button type="button" className="btn btn--primary" onClick={onRemove} disabled={remove.isPending}>
                    {t("billing.removeYes")}
                  </button>
                  <button type="button" className="btn" onClick={() => setConfirming(false)}>
                    {t("billing.keep")}
                  </button>
                </div>
              )}
            </div>
          ) : (
            <p>{t("billing.none")}</p>
          )}
          {(editing || !card.data) && (
            <CardForm
              offerSave={false}
              submitLabel={card.data ? t("billing.replaceSubmit") : t("billing.addSubmit")}
              onPay={onReplace}
            />
          )}
        </>
      )}
    </AccountSection>
  );
}
