import { useTranslation } from "react-i18next";
import type { StatMetric } from "@/entities/stats";
import "./StatBars.css";

/**
 * Match stats as mirrored bars: home grows towards the start, away towards the end. The
 * values are written out; the bars only illustrate them.
 */
export function StatBars({
  metrics,
  homeName,
  awayName,
}: {
  metrics: readonly StatMetric[];
  homeName: string;
  awayName: string;
}) {
  const { t } = useTranslation("catalog");
  return (
    <table className="stat-bars">
      <thead className="visually-hidden">
        <tr>
          <th scope="col" dir="auto">
            {homeName}
          </th>
          <th scope="col">{t("stats.metric")}</th>
          <th scope="col" dir="auto">
            {awayName}
          </th>
        </tr>
      </thead>
      <tbody>
        {metrics.map((metric) => (
          <tr key={metric.id} className="stat-bars__row">
            <td className="stat-bars__value stat-bars__value--home">
              {metric.home.text}
              <span className="stat-bars__track stat-bars__track--home" aria-hidden="true">
                <span className="stat-bars__fill" style={{ inlineSize: `${metric.home.ratio * 100}%` }} />
              </span>
            </td>
            <th scope="row" className="stat-bars__name">
              {/* The short name is for the eye on narrow screens; the long one is always read out. */}
              <abbr title={metric.name} dir="auto" aria-hidden="true">
                {metric.shortName}
              </abbr>
              <span className="stat-bars__long" dir="auto">
                {metric.name}
              </span>
            </th>
            <td className="stat-bars__value stat-bars__value--away">
              {metric.away.text}
              <span className="stat-bars__track stat-bars__track--away" aria-hidden="true">
                <span className="stat-bars__fill" style={{ inlineSize: `${metric.away.ratio * 100}%` }} />
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function StatBarsSkeleton({ rows = 6 }: { rows?: number }) {
  return (
    <div className="stat-bars-skeleton" aria-hidden="true">
      {Array.from({ length: rows }, (_, index) => (
        <span key={index} className="stat-bars-skeleton__row" />
      ))}
    </div>
  );
}
