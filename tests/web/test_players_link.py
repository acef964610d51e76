"""Each name on the players page opens that player's page (their record, partners and
rivals): nothing linked there from the club's pages but the leaderboard."""

from scorebook.clubs.models import Player
from tests.web.test_pages import client_for


def test_each_player_opens_their_page(people, world):
    page = client_for(people, "member").get(f"/c/{world['slug']}/players").content.decode()
    for player in Player.objects.filter(club__slug=world["slug"]):
        link = f'<a class="name" href="/c/{world["slug"]}/players/{player.pk}/stats">'
        assert f"{link}{player.name}</a>" in page, player.name
