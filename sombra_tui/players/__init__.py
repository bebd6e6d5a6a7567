"""The players' view outside the DJ's screen (issue 23): a web page served from the app
(server.py) and a second terminal that follows it (terminal.py). No screen imports this
package's server machinery except through the app."""
