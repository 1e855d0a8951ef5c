"""The domain services: games, hands, leagues, ratings, access, history, exports and the
statistics. They take and return data and talk to the store through the models; the web
pages and the JSON API (one layer up) call them. See docs/architecture.md."""
