import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { installFetchMock } from './fetch-mock';

installFetchMock();
// jsdom has no layout; the router's scroll restoration calls this.
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  localStorage.clear();
});
