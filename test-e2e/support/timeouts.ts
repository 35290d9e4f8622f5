// End-to-end tests talk to real processes: give each test room (jest's default is 5 s).
jest.setTimeout(60_000);
