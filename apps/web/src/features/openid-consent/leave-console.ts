/** Full-page navigation out of the console (to the provider's resume URL); an object so tests can spy on it. */
export const leaveConsole = {
  to(url: string): void {
    window.location.assign(url);
  },
};
