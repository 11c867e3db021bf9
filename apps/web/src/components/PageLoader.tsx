import { Logo } from './Logo';
import { Loader } from './Loader';

/**
 * Full-page loader shown until the current-user and essential-settings queries settle
 * (spec §1). Rendered before the language is certain, so its accessible label stays neutral.
 */
export function PageLoader() {
  return (
    <div className="page-loader" aria-busy="true">
      <Logo size={56} className="page-loader__logo" />
      <Loader size={70} label="Palisade" className="page-loader__spinner" />
    </div>
  );
}
