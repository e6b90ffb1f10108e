/*
 * The showcase helpers live with the project's schema in registrations (every representation of a
 * project, the team's and the registration's too, shows them, and registrations sits below
 * submissions): this name stays for the modules above that import it from here.
 */
export * from '../registrations/project-showcase.js';
