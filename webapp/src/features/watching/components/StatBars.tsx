import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import type { StatMetric } from "@/entities/stats";
import "./StatBars.css";

/**
 * A metric's names in the viewer's language: the partner writes them in English, so metrics we
 * know (by filterId) read from the translations; the English abbreviations stay for English only
 * (other languages show the translated name). Metrics we do not know keep the partner's names.
 */
export function metricNames(
  metric: Pick<StatMetric, "id" | "name" | "shortName">,
  t: TFunction<"stats">,
  language: string,
): { name: string; shortName: string } {
  const key = `metrics.${metric.id}` as const;
  const known = t(key, { defaultValue: "" });
  if (!known) return { name: metric.name, shortName: metric.shortName };
  return { name: known, shortName: language === "en" ? metric.shortName : known };
}

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
  // Their own namespace, loaded with the pages that show stats (src/app/routes.tsx).
  const { t: names, i18n } = useTranslation("stats");
  return (
    <table className="stat-bars">
      <thead className="visually-hidden">
        <tr>
          <th scope="col" dir="auto">
            {homeName}
          </th>
          <th scope="col">{names("metric")}</th>
          <th scope="col" dir="auto">
            {awayName}
          </th>
        </tr>
      </thead>
      <tbody>
        {metrics.map((metric) => {
          const { name, shortName } = metricNames(metric, names, i18n.language);
          return (
            <tr key={metric.id} className="stat-bars__row">
              <td className="stat-bars__value stat-bars__value--home">
                {metric.home.text}
                <span className="stat-bars__track stat-bars__track--home" aria-hidden="true">
                  <span className="stat-bars__fill" style={{ inlineSize: `${metric.home.ratio * 100}%` }} />
                </span>
              </td>
              <th scope="row" className="stat-bars__name">
                {/* The short name is for the eye on narrow screens; the long one is always read out. */}
                <abbr title={name} dir="auto" aria-hidden="true">
                  {shortName}
                </abbr>
                <span className="stat-bars__long" dir="auto">
                  {name}
                </span>
              </th>
              <td className="stat-bars__value stat-bars__value--away">
                {metric.away.text}
                <span className="stat-bars__track stat-bars__track--away" aria-hidden="true">
                  <span className="stat-bars__fill" style={{ inlineSize: `${metric.away.ratio * 100}%` }} />
                </span>
              </td>
            </tr>
          );
        })}
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
