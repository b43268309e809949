"""Writes toolkit/data/status/catalog.json and incidents.json (hand-authored: the spec's product and API ids with
Korean/English display names, and a fictional but realistic incident history). Run: python datasets/build/status_catalog.py
"""
import json
from pathlib import Path

OUT = Path(__file__).resolve().parents[2] / "toolkit" / "data" / "status"
PRODUCTS = {
 "login": ("로그인", "Login", ["oauth_authorize","oauth_token","oidc_meta","oidc_public_key","user_logout","user_signup","user_unlink","user_access_token_info","user_me","user_update_profile","user_shipping_address","user_ids","app_users","user_scopes","user_revoke_scopes","user_service_terms","user_revoke_service_terms","oidc_userinfo"]),
 "social": ("소셜", "Social", ["talk_profile","talk_friends","picker_friends_native","picker_friends_js"]),
 "message": ("메시지", "Message", ["talk_sharing_default_template","talk_sharing_custom_template","talk_sharing_scrap_template","talk_sharing_send_message","talk_sharing_web_send_message","talk_sharing_upload_images","talk_sharing_scrap_images","talk_sharing_delete_images","talk_memo_default_send","talk_memo_send","talk_memo_scrap_send","talk_friends_message_default_send","talk_friends_message_send","talk_friends_message_scrap_send"]),
 "local": ("로컬", "Local", ["map_js","map_native","vector_map_native","map_style","map_poi","local_search_address","local_geo_coord2regioncode","local_geo_coord2address","local_geo_transcoord","local_search_keyword","local_search_category"]),
 "navi": ("내비", "Navi", ["navi_directions","navi_waypoints_directions","navi_origins_directions","navi_destinations_directions","navi_future_directions"]),
 "channel": ("채널", "Channel", ["talk_channels","talk_channels_multi","talkchannel_create_target_user_file","talkchannel_target_user_file","talkchannel_update_target_users","talkchannel_delete_target_users"]),
 "search": ("검색", "Search", ["search_web","search_vclip","search_image","search_blog","search_book","search_cafe"]),
}
NAMES = {
 "oauth_authorize": ("인가 코드 받기", "Get authorization code"), "oauth_token": ("토큰 받기", "Get tokens"),
 "oidc_meta": ("OIDC 메타데이터", "OIDC metadata"), "oidc_public_key": ("OIDC 공개키", "OIDC public keys"),
 "user_logout": ("로그아웃", "Logout"), "user_signup": ("수동 연결", "Manual signup"), "user_unlink": ("연결 끊기", "Unlink"),
 "user_access_token_info": ("토큰 정보 보기", "Access token information"), "user_me": ("사용자 정보 가져오기", "Retrieve user information"),
 "user_update_profile": ("사용자 정보 저장하기", "Store user properties"), "user_shipping_address": ("배송지 가져오기", "Shipping addresses"),
 "user_ids": ("사용자 목록 가져오기", "List app users"), "app_users": ("앱 사용자 정보", "App users"),
 "user_scopes": ("동의 내역 확인하기", "Consent details"), "user_revoke_scopes": ("동의 철회하기", "Revoke consent"),
 "user_service_terms": ("서비스 약관 동의 내역", "Service terms consent"), "user_revoke_service_terms": ("서비스 약관 동의 철회", "Revoke service terms"),
 "oidc_userinfo": ("OIDC 사용자 정보", "OIDC user information"),
 "talk_profile": ("메신저 프로필", "Messenger profile"), "talk_friends": ("친구 목록", "Friends list"),
 "picker_friends_native": ("친구 피커 (네이티브)", "Friend picker (native)"), "picker_friends_js": ("친구 피커 (JS)", "Friend picker (JS)"),
 "talk_sharing_default_template": ("공유 기본 템플릿", "Share default template"), "talk_sharing_custom_template": ("공유 사용자 정의 템플릿", "Share custom template"),
 "talk_sharing_scrap_template": ("공유 스크랩 템플릿", "Share scrap template"), "talk_sharing_send_message": ("공유 메시지 보내기", "Share send message"),
 "talk_sharing_web_send_message": ("웹 공유 메시지 보내기", "Web share send message"), "talk_sharing_upload_images": ("이미지 업로드", "Upload images"),
 "talk_sharing_scrap_images": ("이미지 스크랩", "Scrap images"), "talk_sharing_delete_images": ("이미지 삭제", "Delete images"),
 "talk_memo_default_send": ("나에게 기본 템플릿 보내기", "Memo default send"), "talk_memo_send": ("나에게 사용자 정의 템플릿 보내기", "Memo custom send"),
 "talk_memo_scrap_send": ("나에게 스크랩 메시지 보내기", "Memo scrap send"), "talk_friends_message_default_send": ("친구에게 기본 템플릿 보내기", "Friends message default send"),
 "talk_friends_message_send": ("친구에게 사용자 정의 템플릿 보내기", "Friends message custom send"), "talk_friends_message_scrap_send": ("친구에게 스크랩 메시지 보내기", "Friends message scrap send"),
 "map_js": ("지도 JS", "Map JS"), "map_native": ("지도 네이티브", "Map native"), "vector_map_native": ("벡터 지도 네이티브", "Vector map native"),
 "map_style": ("지도 스타일", "Map style"), "map_poi": ("지도 POI", "Map POI"), "local_search_address": ("주소 검색", "Address search"),
 "local_geo_coord2regioncode": ("좌표로 행정구역정보 변환", "Coordinate to region code"), "local_geo_coord2address": ("좌표로 주소 변환", "Coordinate to address"),
 "local_geo_transcoord": ("좌표계 변환", "Coordinate transformation"), "local_search_keyword": ("키워드로 장소 검색", "Keyword place search"),
 "local_search_category": ("카테고리로 장소 검색", "Category place search"), "navi_directions": ("자동차 길찾기", "Car directions"),
 "navi_waypoints_directions": ("다중 경유지 길찾기", "Waypoints directions"), "navi_origins_directions": ("다중 출발지 길찾기", "Many-origin directions"),
 "navi_destinations_directions": ("다중 목적지 길찾기", "Many-destination directions"), "navi_future_directions": ("미래 운행 정보 길찾기", "Future driving estimate"),
 "talk_channels": ("채널 관계 확인하기", "Channel relations"), "talk_channels_multi": ("여러 사용자 채널 관계 확인하기", "Channel relations of many users"),
 "talkchannel_create_target_user_file": ("고객 파일 등록하기", "Create customer file"), "talkchannel_target_user_file": ("고객 파일 보기", "List customer files"),
 "talkchannel_update_target_users": ("고객 파일에 사용자 추가하기", "Add users to customer file"), "talkchannel_delete_target_users": ("고객 파일에서 사용자 삭제하기", "Delete users from customer file"),
 "search_web": ("웹문서 검색", "Web search"), "search_vclip": ("동영상 검색", "Video search"), "search_image": ("이미지 검색", "Image search"),
 "search_blog": ("블로그 검색", "Blog search"), "search_book": ("책 검색", "Book search"), "search_cafe": ("카페 검색", "Cafe search"),
}
# day_offset: days before the sandbox's "today" when it is seeded; start: UTC time of day; hours may cross midnight.
INCIDENTS = [
 {"api":"navi_directions","status":"YELLOW","day_offset":41,"start":"01:10","hours":3.5,"note":"slow route computation"},
 {"api":"local_search_keyword","status":"RED","day_offset":37,"start":"06:00","hours":1.2,"note":"search index outage"},
 {"api":"local_search_category","status":"RED","day_offset":37,"start":"06:00","hours":1.2,"note":"search index outage"},
 {"api":"talk_friends_message_send","status":"YELLOW","day_offset":33,"start":"11:30","hours":2,"note":"delayed delivery"},
 {"api":"oauth_token","status":"MAINTENANCE","day_offset":29,"start":"17:00","hours":2,"note":"planned maintenance"},
 {"api":"oauth_authorize","status":"MAINTENANCE","day_offset":29,"start":"17:00","hours":2,"note":"planned maintenance"},
 {"api":"talk_channels","status":"YELLOW","day_offset":26,"start":"03:00","hours":5,"note":"elevated error rate"},
 {"api":"search_image","status":"RED","day_offset":24,"start":"08:20","hours":0.8,"note":"image search outage"},
 {"api":"talk_memo_send","status":"YELLOW","day_offset":21,"start":"13:00","hours":1.5,"note":"delayed delivery"},
 {"api":"map_js","status":"YELLOW","day_offset":18,"start":"22:00","hours":4,"note":"tile server latency"},
 {"api":"user_me","status":"RED","day_offset":15,"start":"02:40","hours":0.6,"note":"user information unavailable"},
 {"api":"oidc_userinfo","status":"RED","day_offset":15,"start":"02:40","hours":0.6,"note":"user information unavailable"},
 {"api":"talkchannel_update_target_users","status":"MAINTENANCE","day_offset":12,"start":"16:00","hours":3,"note":"planned maintenance"},
 {"api":"navi_origins_directions","status":"YELLOW","day_offset":9,"start":"07:30","hours":2.5,"note":"slow route computation"},
 {"api":"talk_friends","status":"YELLOW","day_offset":7,"start":"10:00","hours":1,"note":"elevated latency"},
 {"api":"local_search_address","status":"RED","day_offset":5,"start":"04:00","hours":2,"note":"address index outage"},
 {"api":"search_blog","status":"YELLOW","day_offset":3,"start":"12:00","hours":6,"note":"stale results"},
 {"api":"talk_sharing_upload_images","status":"RED","day_offset":2,"start":"09:15","hours":1.25,"note":"upload failures"},
 {"api":"navi_future_directions","status":"YELLOW","day_offset":0,"start":"06:00","hours":12,"note":"traffic model refresh delayed"},
 {"api":"talkchannel_target_user_file","status":"MAINTENANCE","day_offset":0,"start":"08:00","hours":3,"note":"planned maintenance"},
]

if __name__ == "__main__":
    catalog = {"products": [
        {"productId": pid, "name": {"ko": ko, "en": en},
         "apis": [{"apiId": a, "name": {"ko": NAMES[a][0], "en": NAMES[a][1]}} for a in apis]}
        for pid, (ko, en, apis) in PRODUCTS.items()]}
    assert sum(len(p["apis"]) for p in catalog["products"]) == 64
    OUT.mkdir(exist_ok=True)
    (OUT / "catalog.json").write_text(json.dumps(catalog, ensure_ascii=False, indent=1) + "\n", "utf-8")
    (OUT / "incidents.json").write_text(json.dumps({"incidents": INCIDENTS}, ensure_ascii=False, indent=1) + "\n", "utf-8")
