class app {
  tag 'frontend', 'team_web'
  notify { 'app': }
}
include app
